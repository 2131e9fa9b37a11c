// The async copies' checking mode (WEFT_CHECK_ASYNC_COPIES=1, which the
// runtime passes with each launch in LaunchSettings): verifies that every
// work-item of a group passed the same arguments to each async copy and
// waited for each of its copies, and describes the first violation.
#pragma once
#include "device/launch_abi.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace weft {

// What one work-group did with its async copies; lives while the group runs.
class AsyncCopyGroupCheck {
public:
  // Starts checking a new group of `context`'s size.
  void begin(const WorkGroupContext &context);
  // Records one call (the context's async_copy_check callback lands here).
  void record(const AsyncCopyCall &call);
  // Checks what only the end of the group shows (every work-item made every
  // copy, and waited for each). Returns the first violation, or "".
  std::string finish();

private:
  struct WorkItemRecord {
    std::vector<void *> issued_events; // the event of each copy it made
    std::set<void *> waited;
  };
  std::string describeItem(uint64_t linear_id) const;
  void fail(const std::string &message);

  uint64_t local_size_[3] = {1, 1, 1};
  uint64_t group_id_[3] = {0, 0, 0};
  std::vector<AsyncCopyCall> copies_; // as the first work-item passed them
  std::vector<uint64_t> first_caller_;
  std::map<uint64_t, WorkItemRecord> items_;
  std::string violation_;
};

// The callback compiled code calls in checking mode: forwards to the check
// of the group running on this thread.
void recordAsyncCopyCall(WorkGroupContext *context, const AsyncCopyCall *call);
// The check recordAsyncCopyCall forwards to on this thread.
void setCurrentAsyncCopyCheck(AsyncCopyGroupCheck *check);

} // namespace weft
