// The driver's settings: every environment variable it reads, declared once
// in runtime/settings.def, read once, and passed down as values (device/ and
// the compiler library read no environment). runtime/settings.cpp is the only
// file of the driver that calls getenv.
#pragma once
#include "device/settings.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace weft {

// A variable's value as given, or nothing when it is unset.
using Text = std::optional<std::string>;
// A duration in seconds, positive (0: off).
struct Seconds {
  double value = 0;
};
// A size in bytes (0: none given).
struct Bytes {
  uint64_t value = 0;
};
// A whole number (0: none given).
struct Count {
  uint64_t value = 0;
};

enum class SettingOrigin {
  Weft,   // Weft's own switch, listed in README.md
  System, // a standard variable Weft honours
};

struct Settings {
#define WEFT_SETTING(origin, variable, member, type, default_value, doc)       \
  type member = default_value;
#include "runtime/settings.def"
#undef WEFT_SETTING

  // The values device/ takes with each launch.
  LaunchSettings launchSettings() const;
  // TMPDIR when set and not empty, else /tmp.
  std::string temporaryDirectory() const;
};

// The process's settings, read from the environment on first use. A value
// that does not parse is reported on stderr (once) and the default used.
const Settings &settings();

// Reads the settings through `lookup` (getenv, or a test's table); appends
// one line to `warnings` per malformed value.
Settings readSettings(const std::function<const char *(const char *)> &lookup,
                      std::vector<std::string> &warnings);

// The table itself, for documentation checks.
struct SettingDescription {
  SettingOrigin origin;
  const char *variable;
  const char *doc;
};
const std::vector<SettingDescription> &settingsTable();

} // namespace weft
