// The queue and wait list of a command once its entry point has validated
// them, and its submission: what the buffer and SVM entry points share.
#pragma once
#include "icd/validation.h"
#include "runtime/command.h"
#include "runtime/queue.h"

#include <utility>
#include <vector>

namespace weft::icd {

struct CommandTarget {
  Queue *queue = nullptr;
  std::vector<Ref<Event>> wait_list;
};

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
