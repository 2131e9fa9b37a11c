#include "compiler/frontend/spirv_execution_modes.h"

namespace weft::compiler {
namespace {

// SPIR-V specification, section 3.
constexpr uint32_t kOpEntryPoint = 15, kOpExecutionMode = 16;
constexpr uint32_t kModeSubgroupsPerWorkgroup = 36;

// The literal string starting at words[at], within `end`.
std::string literalString(const std::vector<uint32_t> &words, size_t at,
                          size_t end) {
  std::string text;
  for (; at < end; ++at)
    for (int byte = 0; byte < 4; ++byte) {
      char c = static_cast<char>((words[at] >> (8 * byte)) & 0xff);
      if (c == '\0')
        return text;
      text += c;
    }
  return text;
}

} // namespace

std::map<std::string, uint64_t>
requiredSubGroupCounts(const std::vector<uint32_t> &words) {
  std::map<uint32_t, std::string> entry_names;
  std::map<uint32_t, uint64_t> counts_by_entry;
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size())
      return {};
    const uint32_t *w = &words[at];
    if (opcode == kOpEntryPoint && count >= 4)
      entry_names[w[2]] = literalString(words, at + 3, at + count);
    else if (opcode == kOpExecutionMode && count >= 4 &&
             w[2] == kModeSubgroupsPerWorkgroup)
      counts_by_entry[w[1]] = w[3];
    at += count;
  }
  std::map<std::string, uint64_t> counts;
  for (const auto &[entry, value] : counts_by_entry)
    if (entry_names.count(entry))
      counts[entry_names[entry]] = value;
  return counts;
}

} // namespace weft::compiler
