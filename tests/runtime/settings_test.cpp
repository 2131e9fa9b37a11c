// The settings table: parsing of each type, malformed values, and README.md's
// list of environment variables against the table.
#include "runtime/settings.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace weft;

namespace {

Settings readFrom(const std::map<std::string, std::string> &environment,
                  std::vector<std::string> &warnings) {
  return readSettings(
      [&](const char *name) -> const char * {
        auto found = environment.find(name);
        return found == environment.end() ? nullptr : found->second.c_str();
      },
      warnings);
}

// The "Environment variables:" list of README.md: up to the next heading.
std::string readmeEnvironmentSection() {
  std::ifstream file(WEFT_README);
  REQUIRE(file);
  std::stringstream text;
  text << file.rdbuf();
  std::string readme = text.str();
  size_t begin = readme.find("Environment variables:");
  REQUIRE(begin != std::string::npos);
  size_t end = readme.find("\n## ", begin);
  return readme.substr(begin, end - begin);
}

} // namespace

TEST_CASE("unset variables give the defaults", "[runtime][settings]") {
  std::vector<std::string> warnings;
  Settings s = readFrom({}, warnings);
  CHECK(warnings.empty());
  CHECK_FALSE(s.debug);
  CHECK_FALSE(s.check_async_copies);
  CHECK(s.barriers == BarrierPath::Regions);
  CHECK_FALSE(s.cache_directory);
  CHECK(s.temporaryDirectory() == "/tmp");
}

TEST_CASE("booleans take 1/0, true/false, on/off", "[runtime][settings]") {
  for (const char *yes : {"1", "true", "on", "TRUE", "On"}) {
    std::vector<std::string> warnings;
    Settings s = readFrom({{"WEFT_DEBUG", yes}}, warnings);
    CHECK(s.debug);
    CHECK(warnings.empty());
  }
  for (const char *no : {"0", "false", "off", "", "OFF"}) {
    std::vector<std::string> warnings;
    Settings s = readFrom({{"WEFT_CHECK_ASYNC_COPIES", no}}, warnings);
    CHECK_FALSE(s.check_async_copies);
    CHECK(warnings.empty());
  }
}

TEST_CASE("a malformed value is reported and the default used",
          "[runtime][settings]") {
  std::vector<std::string> warnings;
  Settings s = readFrom({{"WEFT_DEBUG", "yes please"},
                         {"WEFT_BARRIERS", "threads"},
                         {"WEFT_CHECK_ASYNC_COPIES", "1"}},
                        warnings);
  CHECK_FALSE(s.debug);
  CHECK(s.barriers == BarrierPath::Regions);
  CHECK(s.check_async_copies);
  REQUIRE(warnings.size() == 2);
  // Each says which variable and which values it takes.
  CHECK(warnings[0].find("WEFT_DEBUG=yes please") != std::string::npos);
  CHECK(warnings[0].find("1, 0, true, false, on or off") != std::string::npos);
  CHECK(warnings[1].find("WEFT_BARRIERS=threads") != std::string::npos);
  CHECK(warnings[1].find("regions or fibers") != std::string::npos);
}

TEST_CASE("typed values reach the launch and the compiler",
          "[runtime][settings]") {
  std::vector<std::string> warnings;
  Settings s = readFrom({{"WEFT_BARRIERS", "fibers"},
                         {"WEFT_CHECK_ASYNC_COPIES", "on"},
                         {"TMPDIR", "/var/tmp"},
                         {"WEFT_CACHE_DIR", "off"}},
                        warnings);
  CHECK(warnings.empty());
  LaunchSettings launch = s.launchSettings();
  CHECK(launch.barriers == BarrierPath::Fibers);
  CHECK(launch.check_async_copies);
  CHECK(s.temporaryDirectory() == "/var/tmp");
  REQUIRE(s.cache_directory);
  CHECK(*s.cache_directory == "off");
  // An empty TMPDIR is ignored, as it always was.
  CHECK(readFrom({{"TMPDIR", ""}}, warnings).temporaryDirectory() == "/tmp");
}

TEST_CASE("sizes take bytes or a K/M/G/T suffix", "[runtime][settings]") {
  const std::pair<const char *, uint64_t> good[] = {
      {"4096", 4096},       {"512M", 512ull << 20}, {"8G", 8ull << 30},
      {"8GiB", 8ull << 30}, {"2gb", 2ull << 30},    {"1T", 1ull << 40},
      {"16k", 16ull << 10}};
  for (const auto &[text, bytes] : good) {
    std::vector<std::string> warnings;
    Settings s = readFrom({{"WEFT_MEMORY_LIMIT", text}}, warnings);
    INFO(text);
    CHECK(warnings.empty());
    CHECK(s.memory_limit.value == bytes);
  }
  for (const char *bad : {"-1", "8X", "G", "8 G", "99999999999999999999",
                          "20000000000T", "1.5G"}) {
    std::vector<std::string> warnings;
    Settings s = readFrom({{"WEFT_MEMORY_LIMIT", bad}}, warnings);
    INFO(bad);
    CHECK(s.memory_limit.value == 0);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("K, M, G or T") != std::string::npos);
  }
}

// README.md documents every switch of the table and no other.
TEST_CASE("README lists exactly the settings table", "[runtime][settings]") {
  std::string section = readmeEnvironmentSection();
  std::set<std::string> in_readme;
  std::regex weft_name("WEFT_[A-Z_]*[A-Z]");
  for (std::sregex_iterator it(section.begin(), section.end(), weft_name), end;
       it != end; ++it)
    in_readme.insert(it->str());
  std::set<std::string> weft_switches;
  for (const SettingDescription &entry : settingsTable()) {
    if (entry.origin == SettingOrigin::Weft)
      weft_switches.insert(entry.variable);
    // System variables are named there too.
    INFO(entry.variable << " is in runtime/settings.def but not in the "
                           "README's environment variables");
    CHECK(std::regex_search(
        section, std::regex(std::string("\\b") + entry.variable + "\\b")));
  }
  for (const std::string &name : in_readme) {
    INFO(name << " is in the README but not in runtime/settings.def");
    CHECK(weft_switches.count(name) == 1);
  }
}
