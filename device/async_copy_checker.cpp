#include "device/async_copy_checker.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace weft {
namespace {

thread_local AsyncCopyGroupCheck *current_check = nullptr;

const char *functionName(uint32_t function) {
  switch (function) {
  case kAsyncCopy:
    return "async_work_group_copy";
  case kAsyncStridedCopy:
    return "async_work_group_strided_copy";
  case kAsyncCopy2D2D:
    return "async_work_group_copy_2D2D";
  case kAsyncCopy3D3D:
    return "async_work_group_copy_3D3D";
  default:
    return "wait_group_events";
  }
}

std::string describeCall(const AsyncCopyCall &call) {
  char text[512];
  std::snprintf(
      text, sizeof text,
      "%s(dst=0x%" PRIx64 ", src=0x%" PRIx64 ", %" PRIu64
      "-byte elements, %" PRIu64 " per line, %" PRIu64 " lines, %" PRIu64
      " planes, src line/plane %" PRIu64 "/%" PRIu64 ", dst line/plane %" PRIu64
      "/%" PRIu64 ", event %p)",
      functionName(call.function), call.dst, call.src, call.element_bytes,
      call.elements_per_line, call.lines, call.planes, call.src_line,
      call.src_plane, call.dst_line, call.dst_plane, call.event);
  return text;
}

bool sameArguments(const AsyncCopyCall &a, const AsyncCopyCall &b) {
  return a.function == b.function && a.dst == b.dst && a.src == b.src &&
         a.element_bytes == b.element_bytes &&
         a.elements_per_line == b.elements_per_line && a.lines == b.lines &&
         a.planes == b.planes && a.src_line == b.src_line &&
         a.src_plane == b.src_plane && a.dst_line == b.dst_line &&
         a.dst_plane == b.dst_plane && a.event == b.event;
}

} // namespace

void AsyncCopyGroupCheck::begin(const WorkGroupContext &context) {
  for (unsigned d = 0; d < 3; ++d) {
    local_size_[d] = context.local_size[d];
    group_id_[d] = context.group_id[d];
  }
  copies_.clear();
  first_caller_.clear();
  items_.clear();
  violation_.clear();
}

std::string AsyncCopyGroupCheck::describeItem(uint64_t linear_id) const {
  uint64_t x = linear_id % local_size_[0];
  uint64_t y = (linear_id / local_size_[0]) % local_size_[1];
  uint64_t z = linear_id / (local_size_[0] * local_size_[1]);
  char text[128];
  std::snprintf(text, sizeof text,
                "work-item (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")", x, y, z);
  return text;
}

void AsyncCopyGroupCheck::fail(const std::string &message) {
  if (!violation_.empty())
    return;
  char group[128];
  std::snprintf(group, sizeof group,
                "work-group (%" PRIu64 ",%" PRIu64 ",%" PRIu64 "): ",
                group_id_[0], group_id_[1], group_id_[2]);
  violation_ = group + message;
}

void AsyncCopyGroupCheck::record(const AsyncCopyCall &call) {
  WorkItemRecord &item = items_[call.work_item];
  if (call.function == kWaitGroupEvents) {
    for (uint32_t i = 0; i < call.num_events; ++i) {
      void *event = call.events ? call.events[i] : nullptr;
      bool known = false;
      for (void *issued : item.issued_events)
        known = known || issued == event;
      if (!known) {
        char text[64];
        std::snprintf(text, sizeof text, "%p", event);
        fail(describeItem(call.work_item) +
             " called wait_group_events with event " + text +
             ", which none of its async copies returned");
      }
      item.waited.insert(event);
    }
    return;
  }
  item.issued_events.push_back(
      call.event ? call.event : reinterpret_cast<void *>(call.sequence + 1));
  if (call.sequence == copies_.size()) {
    copies_.push_back(call);
    first_caller_.push_back(call.work_item);
    return;
  }
  if (call.sequence > copies_.size())
    return; // its earlier copies were already reported as divergent
  const AsyncCopyCall &first = copies_[call.sequence];
  if (!sameArguments(first, call))
    fail(describeItem(call.work_item) + " called async copy #" +
         std::to_string(call.sequence) + " as " + describeCall(call) + " but " +
         describeItem(first_caller_[call.sequence]) + " called it as " +
         describeCall(first));
}

std::string AsyncCopyGroupCheck::finish() {
  uint64_t items = local_size_[0] * local_size_[1] * local_size_[2];
  if (!copies_.empty()) {
    for (uint64_t id = 0; id < items && violation_.empty(); ++id) {
      auto found = items_.find(id);
      size_t made =
          found == items_.end() ? 0 : found->second.issued_events.size();
      if (made != copies_.size())
        fail(describeItem(id) + " made " + std::to_string(made) +
             " async copies, but " + describeItem(first_caller_[0]) + " made " +
             std::to_string(copies_.size()) +
             "; every work-item must make each copy");
    }
  }
  for (const auto &[id, item] : items_) {
    if (!violation_.empty())
      break;
    for (size_t n = 0; n < item.issued_events.size(); ++n)
      if (!item.waited.count(item.issued_events[n])) {
        fail(describeItem(id) + " finished without waiting for async copy #" +
             std::to_string(n) +
             (n < copies_.size() ? " " + describeCall(copies_[n]) : ""));
        break;
      }
  }
  return violation_;
}

void setCurrentAsyncCopyCheck(AsyncCopyGroupCheck *check) {
  current_check = check;
}

void recordAsyncCopyCall(WorkGroupContext *, const AsyncCopyCall *call) {
  if (current_check && call)
    current_check->record(*call);
}

} // namespace weft
