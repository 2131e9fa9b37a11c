// Links the relocatable object of a program into an ELF shared object with
// lld, in process. The runtime loads that shared object with dlopen, so a
// cached or binary program runs without the compiler library.
#pragma once
#include <string>
#include <vector>

namespace weft::compiler {

// `object` is an ELF relocatable object for the host. The shared object
// records the C and math libraries it calls into (DT_NEEDED) and exports
// only the symbols the object defines with default visibility.
// Its scratch files go under `temporary_directory`.
bool linkSharedObject(const std::vector<char> &object,
                      const std::string &temporary_directory,
                      std::vector<unsigned char> &shared_object,
                      std::string &error);

} // namespace weft::compiler
