#include "compiler/codegen/stack_sizes.h"

#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Support/DataExtractor.h>
#include <llvm/Support/MemoryBuffer.h>

namespace weft::compiler {

std::map<std::string, uint64_t>
readStackSizes(const std::vector<unsigned char> &shared_object) {
  std::map<std::string, uint64_t> sizes;
  llvm::StringRef bytes(reinterpret_cast<const char *>(shared_object.data()),
                        shared_object.size());
  auto object = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(bytes, "kernels"));
  if (!object) {
    llvm::consumeError(object.takeError());
    return sizes;
  }
  auto *elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(object->get());
  if (!elf)
    return sizes;

  std::map<uint64_t, std::string> names; // address → function
  for (const llvm::object::ELFSymbolRef &symbol :
       elf->getDynamicSymbolIterators()) {
    auto name = symbol.getName();
    auto address = symbol.getAddress();
    if (name && address)
      names[*address] = name->str();
    else {
      if (!name)
        llvm::consumeError(name.takeError());
      if (!address)
        llvm::consumeError(address.takeError());
    }
  }
  for (const llvm::object::SectionRef &section : elf->sections()) {
    auto section_name = section.getName();
    if (!section_name || *section_name != ".stack_sizes") {
      if (!section_name)
        llvm::consumeError(section_name.takeError());
      continue;
    }
    auto contents = section.getContents();
    if (!contents) {
      llvm::consumeError(contents.takeError());
      continue;
    }
    // Entries: the function's address (8 bytes), then its frame (ULEB128).
    llvm::DataExtractor data(*contents, /*IsLittleEndian=*/true, 8);
    llvm::DataExtractor::Cursor cursor(0);
    while (cursor && cursor.tell() < contents->size()) {
      uint64_t address = data.getAddress(cursor);
      uint64_t frame = data.getULEB128(cursor);
      if (!cursor)
        break;
      auto found = names.find(address);
      if (found != names.end())
        sizes[found->second] = frame;
    }
    llvm::consumeError(cursor.takeError());
  }
  return sizes;
}

} // namespace weft::compiler
