// The queue and wait list of a command once its entry point has validated
// them, and its submission: what the buffer and SVM entry points share.
#pragma once
#include "icd/validation.h"
#include "runtime/command.h"
#include "runtime/memory.h"
#include "runtime/queue.h"

#include <initializer_list>
#include <utility>
#include <vector>

namespace weft::icd {

struct CommandTarget {
  Queue *queue = nullptr;
  std::vector<Ref<Event>> wait_list;
};

// The memory operands of a command: each a live object of the queue's
// context, of the kind the command takes.
enum class MemoryOperand { Buffer, Image };
inline cl_int checkMemoryOperands(const Queue &queue,
                                  std::initializer_list<cl_mem> handles,
                                  MemoryOperand kind) {
  for (cl_mem handle : handles) {
    Memory *memory = Memory::fromHandle(handle);
    // Pipes hold packets only kernels may touch: no command applies.
    if (!memory || memory->isPipe() ||
        memory->isImage() != (kind == MemoryOperand::Image))
      return CL_INVALID_MEM_OBJECT;
    if (&memory->context() != &queue.context())
      return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

// Queues `command` and hands out its event; a blocking command is waited
// for.
inline cl_int submit(CommandTarget &target, Command command, bool blocking,
                     cl_event *event_out) {
  Ref<Event> event;
  cl_int err = target.queue->submit(
      std::move(command), std::move(target.wait_list), blocking, event);
  returnEvent(event, event_out);
  return err;
}

} // namespace weft::icd
