// Event entry points: waiting, status, callbacks, user events, profiling.
#include "icd/info_query.h"
#include "icd/validation.h"
#include "runtime/event.h"
#include "runtime/queue.h"

#include <new>

using namespace weft;
using weft::icd::setError;

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events,
                                                const cl_event *events) {
  if (num_events == 0 || !events)
    return CL_INVALID_VALUE;
  Context *context = nullptr;
  for (cl_uint i = 0; i < num_events; ++i) {
    Event *event = Event::fromHandle(events[i]);
    if (!event)
      return CL_INVALID_EVENT;
    if (context && &event->context() != context)
      return CL_INVALID_CONTEXT;
    context = &event->context();
  }
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < num_events; ++i)
    if (Event::fromHandle(events[i])->wait() < 0)
      result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return result;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event handle,
                                               cl_event_info param_name,
                                               size_t param_value_size,
                                               void *param_value,
                                               size_t *param_value_size_ret) {
  Event *event = Event::fromHandle(handle);
  if (!event)
    return CL_INVALID_EVENT;
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  switch (param_name) {
  case CL_EVENT_COMMAND_QUEUE:
    return out.value(static_cast<cl_command_queue>(event->queue()));
  case CL_EVENT_CONTEXT:
    return out.value(static_cast<cl_context>(&event->context()));
  case CL_EVENT_COMMAND_TYPE:
    return out.value(event->commandType());
  case CL_EVENT_COMMAND_EXECUTION_STATUS:
    return out.value(event->status());
  case CL_EVENT_REFERENCE_COUNT:
    return out.value(event->apiReferenceCount());
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event handle) {
  Event *event = Event::fromHandle(handle);
  if (!event)
    return CL_INVALID_EVENT;
  event->retainApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event handle) {
  Event *event = Event::fromHandle(handle);
  if (!event)
    return CL_INVALID_EVENT;
  event->releaseApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(
    cl_event handle, cl_int command_exec_callback_type,
    void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *), void *user_data) {
  Event *event = Event::fromHandle(handle);
  if (!event)
    return CL_INVALID_EVENT;
  if (!pfn_notify || (command_exec_callback_type != CL_COMPLETE &&
                      command_exec_callback_type != CL_SUBMITTED &&
                      command_exec_callback_type != CL_RUNNING))
    return CL_INVALID_VALUE;
  event->addCallback(command_exec_callback_type, pfn_notify, user_data);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context context_handle,
                                                    cl_int *errcode_ret) {
  Context *context = Context::fromHandle(context_handle);
  if (!context) {
    setError(errcode_ret, CL_INVALID_CONTEXT);
    return nullptr;
  }
  auto *event = new (std::nothrow) Event(*context, nullptr, CL_COMMAND_USER);
  setError(errcode_ret, event ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return event;
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event handle,
                                                     cl_int execution_status) {
  Event *event = Event::fromHandle(handle);
  if (!event || event->commandType() != CL_COMMAND_USER)
    return CL_INVALID_EVENT;
  if (execution_status > CL_COMPLETE)
    return CL_INVALID_VALUE;
  if (event->isComplete())
    return CL_INVALID_OPERATION; // may be set only once
  event->setStatus(execution_status);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(
    cl_event handle, cl_profiling_info param_name, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret) {
  Event *event = Event::fromHandle(handle);
  if (!event)
    return CL_INVALID_EVENT;
  if (!event->queue() || !event->queue()->profiling() ||
      event->status() != CL_COMPLETE)
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  switch (param_name) {
  case CL_PROFILING_COMMAND_QUEUED:
  case CL_PROFILING_COMMAND_SUBMIT:
  case CL_PROFILING_COMMAND_START:
  case CL_PROFILING_COMMAND_END:
  case CL_PROFILING_COMMAND_COMPLETE:
    break;
  default:
    return CL_INVALID_VALUE;
  }
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  return out.value(event->profilingTime(param_name));
}
