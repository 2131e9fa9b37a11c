#include "device/memory_checker.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace weft {
namespace {

thread_local const MemoryCheckObjects *current_objects = nullptr;

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64, value);
  return text;
}

std::string objectName(const MemoryViolation &violation,
                       const MemoryCheckObjects &objects) {
  switch (violation.object_kind) {
  case kMemoryArgument: {
    std::string name = "argument " + std::to_string(violation.object_index);
    if (violation.object_index < objects.argument_names.size() &&
        !objects.argument_names[violation.object_index].empty())
      name += " '" + objects.argument_names[violation.object_index] + "'";
    return name;
  }
  case kMemoryLocalVariable:
    return "a __local variable";
  case kMemoryPrivateVariable:
    return "a private variable";
  case kMemoryProgramVariable:
    return "a program-scope variable";
  default:
    return "";
  }
}

} // namespace

void MemoryCheckObjects::finish() {
  std::sort(reachable.begin(), reachable.end(),
            [](const Span &a, const Span &b) { return a.begin < b.begin; });
}

bool MemoryCheckObjects::reaches(uint64_t address, uint64_t bytes) const {
  // Objects may overlap (a sub-buffer and its parent): any of those that
  // start at or before the address may hold it.
  auto after = std::upper_bound(
      reachable.begin(), reachable.end(), address,
      [](uint64_t a, const Span &span) { return a < span.begin; });
  for (auto it = reachable.begin(); it != after; ++it) {
    uint64_t offset = address - it->begin;
    if (offset < it->bytes && bytes <= it->bytes - offset)
      return true;
    if (offset == it->bytes && bytes == 0)
      return true;
  }
  return any_host_memory && !stale(address);
}

bool MemoryCheckObjects::stale(uint64_t address) const {
  for (const Span &span : freed)
    if (address - span.begin < span.bytes)
      return true;
  return false;
}

uint32_t checkMemoryAddress(WorkGroupContext *context, uint64_t address,
                            uint64_t bytes) {
  auto local = reinterpret_cast<uint64_t>(context->local_memory);
  switch (
      context->address_kind(context, reinterpret_cast<const void *>(address))) {
  case kLocalAddress:
    return address - local <= context->local_memory_size &&
           bytes <= context->local_memory_size - (address - local);
  case kPrivateAddress:
    // The work-item's own stack or saved values: their extent per variable
    // is the compiler's to check, where it can see the variable.
    return 1;
  default:
    return current_objects && current_objects->reaches(address, bytes);
  }
}

void setCurrentMemoryObjects(const MemoryCheckObjects *objects) {
  current_objects = objects;
}

std::string describeMemoryViolation(const MemoryViolation &violation,
                                    const WorkGroupContext &context,
                                    const MemoryCheckObjects &objects,
                                    const char *kernel_name) {
  std::string who = "work-item (";
  for (unsigned d = 0; d < context.work_dim; ++d)
    who += (d ? "," : "") +
           std::to_string(context.global_offset[d] +
                          context.group_id[d] * context.enqueued_local_size[d] +
                          violation.local_id[d]);
  who += ")";
  std::string what = std::string(violation.is_write ? "wrote " : "read ") +
                     std::to_string(violation.bytes) + " bytes at " +
                     hex(violation.address);
  if (violation.object_kind == kMemoryPrivateVariable) {
    // Checked by offset, without the variable's address (it may be a
    // register): `address` holds the offset.
    what = std::string(violation.is_write ? "wrote " : "read ") +
           std::to_string(violation.bytes) + " bytes at offset " +
           std::to_string(int64_t(violation.address)) +
           " of a private variable of " +
           std::to_string(violation.object_bytes) + " bytes";
    return "memory check: kernel '" + std::string(kernel_name) + "' " + who +
           " " + what + "; the access was not made";
  }
  std::string where;
  std::string object = objectName(violation, objects);
  if (object.empty()) {
    where = objects.stale(violation.address)
                ? "inside an SVM or USM allocation freed before the launch"
                : "outside every object the launch may reach";
  } else if (violation.address >= violation.object_begin &&
             violation.address - violation.object_begin <=
                 violation.object_bytes) {
    uint64_t offset = violation.address - violation.object_begin;
    where = "at offset " + std::to_string(offset) + " of " + object + " (" +
            std::to_string(violation.object_bytes) + " bytes at " +
            hex(violation.object_begin) + "), " +
            std::to_string(offset + violation.bytes - violation.object_bytes) +
            " bytes past its end";
  } else {
    where = std::to_string(violation.object_begin - violation.address) +
            " bytes before " + object + " (" +
            std::to_string(violation.object_bytes) + " bytes at " +
            hex(violation.object_begin) + ")";
  }
  if (violation.object_kind == kMemoryArgument && violation.object_bytes == 0)
    where = "through " + object + ", which points at no object" +
            (objects.stale(violation.address)
                 ? " (into an SVM or USM allocation freed before the launch)"
                 : "");
  return "memory check: kernel '" + std::string(kernel_name) + "' " + who +
         " " + what + ", " + where + "; the access was not made";
}

} // namespace weft
