// Links the relocatable objects of a program into an ELF shared object with
// lld, in process. The runtime loads that shared object with dlopen, so a
// cached or binary program runs without the compiler library.
#pragma once
#include <string>
#include <vector>

namespace weft::compiler {

// `objects` are ELF relocatable objects for the host. The shared object
// records the C and math libraries they call into (DT_NEEDED) and exports
// only the symbols they define with default visibility.
// Its scratch files go under `temporary_directory`.
bool linkSharedObject(const std::vector<std::vector<char>> &objects,
                      const std::string &temporary_directory,
                      std::vector<unsigned char> &shared_object,
                      std::string &error);

} // namespace weft::compiler
