// Reads runtime/settings.def from the environment. The only file of the
// driver that calls getenv: everything else gets its settings from here.
#include "runtime/settings.h"

#include <strings.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace weft {
namespace {

// Each type of the table: how to parse a value, and what values it takes
// (for the report on a malformed one). False: the value is not one of them.
bool parseValue(const char *text, Text &out) {
  out = std::string(text);
  return true;
}
const char *acceptedValues(const Text *) { return "any text"; }

struct BooleanWord {
  const char *text;
  bool value;
};
constexpr BooleanWord kBooleanWords[] = {{"1", true},    {"0", false},
                                         {"true", true}, {"false", false},
                                         {"on", true},   {"off", false}};

bool parseValue(const char *text, bool &out) {
  for (const BooleanWord &word : kBooleanWords) {
    if (strcasecmp(text, word.text) == 0) {
      out = word.value;
      return true;
    }
  }
  return false;
}
const char *acceptedValues(const bool *) {
  return "1, 0, true, false, on or off";
}

bool parseValue(const char *text, Seconds &out) {
  char *end = nullptr;
  double value = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(value >= 0) || value > 1e9)
    return false;
  out.value = value;
  return true;
}
const char *acceptedValues(const Seconds *) {
  return "a number of seconds (0: off)";
}

// A whole number of bytes, or of KiB, MiB, GiB or TiB with the suffix
// K, M, G or T (one letter, either case, "iB" allowed after it).
bool parseValue(const char *text, Bytes &out) {
  char *end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || *text == '-' || errno == ERANGE)
    return false;
  int shift = 0;
  switch (*end) {
  case 'k':
  case 'K':
    shift = 10;
    break;
  case 'm':
  case 'M':
    shift = 20;
    break;
  case 'g':
  case 'G':
    shift = 30;
    break;
  case 't':
  case 'T':
    shift = 40;
    break;
  case '\0':
    break;
  default:
    return false;
  }
  if (shift) {
    ++end;
    if (strcasecmp(end, "iB") == 0 || strcasecmp(end, "B") == 0)
      end += strlen(end);
  }
  if (*end != '\0' || value > (UINT64_MAX >> shift))
    return false;
  out.value = uint64_t(value) << shift;
  return true;
}
const char *acceptedValues(const Bytes *) {
  return "a number of bytes, or of KiB/MiB/GiB/TiB with K, M, G or T";
}

bool parseValue(const char *text, Count &out) {
  char *end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || *text == '-' || *end != '\0' || errno == ERANGE)
    return false;
  out.value = value;
  return true;
}
const char *acceptedValues(const Count *) { return "a whole number"; }

bool parseValue(const char *text, BarrierPath &out) {
  if (strcasecmp(text, "regions") == 0)
    out = BarrierPath::Regions;
  else if (strcasecmp(text, "fibers") == 0)
    out = BarrierPath::Fibers;
  else
    return false;
  return true;
}
const char *acceptedValues(const BarrierPath *) { return "regions or fibers"; }

// Switches with a fixed set of values treat an empty one as unset; text
// keeps it (WEFT_CACHE_DIR= disables the cache, as it always has).
template <typename T> bool emptyMeansUnset(const T *) { return true; }
bool emptyMeansUnset(const Text *) { return false; }

template <typename T>
void readOne(const char *variable, const char *value, T &member,
             std::vector<std::string> &warnings) {
  if (!value || (!*value && emptyMeansUnset(&member)))
    return;
  T parsed = member;
  if (parseValue(value, parsed)) {
    member = std::move(parsed);
    return;
  }
  warnings.push_back(std::string(variable) + "=" + value +
                     " is not understood: it takes " + acceptedValues(&member) +
                     "; using the default");
}

} // namespace

Settings readSettings(const std::function<const char *(const char *)> &lookup,
                      std::vector<std::string> &warnings) {
  Settings settings;
#define WEFT_SETTING(origin, variable, member, type, default_value, doc)       \
  readOne(#variable, lookup(#variable), settings.member, warnings);
#include "runtime/settings.def"
#undef WEFT_SETTING
  return settings;
}

const Settings &settings() {
  // Never destroyed (usable from static destructors during exit).
  static const Settings &read = *new Settings([] {
    std::vector<std::string> warnings;
    Settings values = readSettings(
        [](const char *variable) { return std::getenv(variable); }, warnings);
    for (const std::string &warning : warnings)
      std::fprintf(stderr, "weft: %s\n", warning.c_str());
    return values;
  }());
  return read;
}

const std::vector<SettingDescription> &settingsTable() {
  static const std::vector<SettingDescription> &table =
      *new std::vector<SettingDescription>{
#define WEFT_SETTING(origin, variable, member, type, default_value, doc)       \
  {SettingOrigin::origin, #variable, doc},
#include "runtime/settings.def"
#undef WEFT_SETTING
      };
  return table;
}

LaunchSettings Settings::launchSettings() const {
  LaunchSettings launch;
  launch.barriers = barriers;
  launch.check_async_copies = check_async_copies;
  launch.kernel_timeout_seconds = kernel_timeout.value;
  return launch;
}

std::string Settings::temporaryDirectory() const {
  if (temporary_directory && !temporary_directory->empty())
    return *temporary_directory;
  return "/tmp";
}

} // namespace weft
