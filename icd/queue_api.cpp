// Command queue entry points, and the markers and barriers queued on them.
#include "icd/info_query.h"
#include "icd/validation.h"
#include "runtime/device.h"
#include "runtime/queue.h"

#include <new>

using namespace weft;
using weft::icd::setError;

namespace {

cl_command_queue makeQueue(cl_context context_handle,
                           cl_device_id device_handle,
                           cl_command_queue_properties flags,
                           std::vector<cl_queue_properties> list,
                           cl_int *errcode_ret) {
  Context *context = Context::fromHandle(context_handle);
  if (!context) {
    setError(errcode_ret, CL_INVALID_CONTEXT);
    return nullptr;
  }
  Device *device = Device::fromHandle(device_handle);
  if (!device || !context->hasDevice(device_handle)) {
    setError(errcode_ret, CL_INVALID_DEVICE);
    return nullptr;
  }
  constexpr cl_command_queue_properties kKnown =
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE |
      CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
  if (flags & ~kKnown) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  // A device queue is out of order, and a default device queue a device
  // queue: other combinations are not queues at all (CL_INVALID_VALUE), as
  // opposed to queues this device does not offer.
  bool on_device = flags & CL_QUEUE_ON_DEVICE;
  if ((on_device && !(flags & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) ||
      ((flags & CL_QUEUE_ON_DEVICE_DEFAULT) && !on_device)) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  // Weft's queues are on the host only.
  if (flags & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)) {
    setError(errcode_ret, CL_INVALID_QUEUE_PROPERTIES);
    return nullptr;
  }
  auto *queue =
      new (std::nothrow) Queue(*context, *device, flags, std::move(list));
  setError(errcode_ret, queue ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return queue;
}

// Queues a marker or barrier: a command that touches no memory and only
// waits (for its wait list, or without one for every earlier command; in an
// in-order queue, for both). Queue::submit knows the out-of-order rules.
cl_int enqueueWaitOnly(cl_command_queue handle, cl_command_type type,
                       cl_uint num_events, const cl_event *events,
                       cl_event *event_out) {
  Queue *queue = Queue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  std::vector<Ref<Event>> wait_list;
  if (cl_int err =
          icd::collectWaitList(queue->context(), num_events, events, wait_list))
    return err;
  Ref<Event> event;
  cl_int err = queue->submit(Command(type), std::move(wait_list),
                             /*blocking=*/false, event);
  icd::returnEvent(event, event_out);
  return err;
}

} // namespace

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(
    cl_context context, cl_device_id device,
    const cl_queue_properties *properties, cl_int *errcode_ret) {
  cl_command_queue_properties flags = 0;
  bool has_size = false;
  std::vector<cl_queue_properties> list;
  if (properties) {
    for (const cl_queue_properties *p = properties; *p; p += 2) {
      switch (p[0]) {
      case CL_QUEUE_PROPERTIES:
        flags = p[1];
        break;
      case CL_QUEUE_SIZE:
        has_size = true;
        break;
      default:
        setError(errcode_ret, CL_INVALID_VALUE);
        return nullptr;
      }
      list.push_back(p[0]);
      list.push_back(p[1]);
    }
    list.push_back(0);
  }
  // A size belongs to device queues only; with one, makeQueue says that
  // Weft has no device queues.
  if (has_size && !(flags & CL_QUEUE_ON_DEVICE)) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  return makeQueue(context, device, flags, std::move(list), errcode_ret);
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(
    cl_context context, cl_device_id device,
    cl_command_queue_properties properties, cl_int *errcode_ret) {
  return makeQueue(context, device, properties, {}, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue handle) {
  Queue *queue = Queue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  queue->retainApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue handle) {
  Queue *queue = Queue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  // The spec implies a flush; queued commands still run and hold the queue.
  queue->flush();
  queue->releaseApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(
    cl_command_queue handle, cl_command_queue_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  Queue *queue = Queue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  switch (param_name) {
  case CL_QUEUE_CONTEXT:
    return out.value(static_cast<cl_context>(&queue->context()));
  case CL_QUEUE_DEVICE:
    return out.value(static_cast<cl_device_id>(&queue->device()));
  case CL_QUEUE_REFERENCE_COUNT:
    return out.value(queue->apiReferenceCount());
  case CL_QUEUE_PROPERTIES:
    return out.value(queue->flags());
  case CL_QUEUE_PROPERTIES_ARRAY:
    return out.array(queue->properties());
  case CL_QUEUE_SIZE:
    return CL_INVALID_COMMAND_QUEUE; // host queue: no size (spec)
  case CL_QUEUE_DEVICE_DEFAULT:
    return out.value(cl_command_queue{nullptr});
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL
clSetCommandQueueProperty(cl_command_queue handle, cl_command_queue_properties,
                          cl_bool, cl_command_queue_properties *) {
  if (!Queue::fromHandle(handle))
    return CL_INVALID_COMMAND_QUEUE;
  return CL_INVALID_OPERATION; // deprecated in 1.1; properties are fixed
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue handle) {
  Queue *queue = Queue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  queue->flush();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue handle) {
  Queue *queue = Queue::fromHandle(handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  return queue->finish();
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMarkerWithWaitList(cl_command_queue queue, cl_uint num_events,
                            const cl_event *events, cl_event *event) {
  return enqueueWaitOnly(queue, CL_COMMAND_MARKER, num_events, events, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueBarrierWithWaitList(cl_command_queue queue, cl_uint num_events,
                             const cl_event *events, cl_event *event) {
  return enqueueWaitOnly(queue, CL_COMMAND_BARRIER, num_events, events, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue queue,
                                                cl_event *event) {
  if (!event && Queue::fromHandle(queue))
    return CL_INVALID_VALUE;
  return enqueueWaitOnly(queue, CL_COMMAND_MARKER, 0, nullptr, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue queue) {
  return enqueueWaitOnly(queue, CL_COMMAND_BARRIER, 0, nullptr, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue queue,
                                                       cl_uint num_events,
                                                       const cl_event *events) {
  if (Queue::fromHandle(queue) && (num_events == 0 || !events))
    return CL_INVALID_VALUE;
  return enqueueWaitOnly(queue, CL_COMMAND_BARRIER, num_events, events,
                         nullptr);
}
