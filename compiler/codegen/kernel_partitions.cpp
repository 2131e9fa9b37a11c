#include "compiler/codegen/kernel_partitions.h"

#include "compiler/interface/compiler_interface.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <algorithm>
#include <numeric>

namespace weft::compiler {
namespace {

using Reached = llvm::SmallPtrSet<const llvm::GlobalValue *, 32>;

// Adds to `found` the global values `value` names, looking through constant
// expressions and aggregates.
void globalsIn(const llvm::Value *value,
               llvm::SmallPtrSetImpl<const llvm::Constant *> &seen,
               llvm::SmallVectorImpl<const llvm::GlobalValue *> &found) {
  const auto *constant = llvm::dyn_cast<llvm::Constant>(value);
  if (!constant || !seen.insert(constant).second)
    return;
  if (const auto *global = llvm::dyn_cast<llvm::GlobalValue>(constant)) {
    found.push_back(global);
    return;
  }
  for (const llvm::Value *operand : constant->operands())
    globalsIn(operand, seen, found);
}

// Every function and variable `roots` reach through their code and the
// variables' initializers, the roots included.
Reached reachedFrom(llvm::ArrayRef<const llvm::Function *> roots) {
  Reached reached;
  llvm::SmallVector<const llvm::GlobalValue *, 32> work(roots.begin(),
                                                        roots.end());
  llvm::SmallPtrSet<const llvm::Constant *, 32> seen;
  while (!work.empty()) {
    const llvm::GlobalValue *global = work.pop_back_val();
    if (!reached.insert(global).second)
      continue;
    if (const auto *f = llvm::dyn_cast<llvm::Function>(global)) {
      for (const llvm::Instruction &instruction : llvm::instructions(*f))
        for (const llvm::Value *operand : instruction.operands())
          globalsIn(operand, seen, work);
    } else if (const auto *variable =
                   llvm::dyn_cast<llvm::GlobalVariable>(global)) {
      if (variable->hasInitializer())
        globalsIn(variable->getInitializer(), seen, work);
    }
  }
  return reached;
}

size_t instructionsOf(const Reached &reached) {
  size_t count = 0;
  for (const llvm::GlobalValue *global : reached)
    if (const auto *f = llvm::dyn_cast<llvm::Function>(global))
      count += f->getInstructionCount();
  return count;
}

// Aliases, ifuncs and comdats tie definitions together in ways a split
// would have to keep; programs do not have them, and a module that does is
// compiled whole.
bool splittable(const llvm::Module &module) {
  if (!module.alias_empty() || !module.ifunc_empty())
    return false;
  // Constructors of program-scope objects run once, with the whole program
  // (compiler/passes/prepare/program_constructors.h).
  if (module.getNamedGlobal("llvm.global_ctors"))
    return false;
  for (const llvm::GlobalObject &global : module.global_objects())
    if (global.hasComdat())
      return false;
  return true;
}

struct KernelUnit {
  KernelGroup names;
  llvm::SmallVector<const llvm::Function *, 3> entries;
  Reached reached;
  size_t instructions = 0;
};

// One copy per part would be a different object: a variable written by
// one kernel and read by another, or one whose address may be compared.
bool mustBeShared(const llvm::GlobalVariable &variable) {
  return !variable.isConstant() || !variable.hasGlobalUnnamedAddr();
}

} // namespace

std::vector<KernelGroup>
kernelGroups(const std::vector<KernelDescription> &kernels) {
  std::vector<KernelGroup> groups;
  for (const KernelDescription &k : kernels)
    if (k.variant_of.empty())
      groups.push_back({k.name});
  for (const KernelDescription &k : kernels)
    for (KernelGroup &group : groups)
      if (!k.variant_of.empty() && group.front() == k.variant_of)
        group.push_back(k.name);
  return groups;
}

std::vector<std::string> kernelsWithEntries(const llvm::Module &module) {
  const std::string prefix = groupEntrySymbol("");
  std::vector<std::string> kernels;
  for (const llvm::Function &f : module)
    if (!f.isDeclaration() && f.getName().starts_with(prefix))
      kernels.push_back(f.getName().substr(prefix.size()).str());
  return kernels;
}

std::vector<ModulePart>
splitByKernel(llvm::Module &module,
              const std::vector<KernelGroup> &kernel_groups, size_t most_parts,
              size_t smallest_part, PartLinkage linkage) {
  if (most_parts < 2 || kernel_groups.size() < 2 || !splittable(module))
    return {};
  std::vector<KernelUnit> units;
  size_t total = 0;
  for (const KernelGroup &group : kernel_groups) {
    KernelUnit unit;
    unit.names = group;
    for (const std::string &name : group)
      for (const std::string &symbol :
           {groupEntrySymbol(name), workItemEntrySymbol(name),
            readThroughEntrySymbol(name)})
        if (const llvm::Function *f = module.getFunction(symbol);
            f && !f->isDeclaration())
          unit.entries.push_back(f);
    unit.reached = reachedFrom(unit.entries);
    unit.instructions = instructionsOf(unit.reached);
    total += unit.instructions;
    units.push_back(std::move(unit));
  }
  size_t parts = std::min(most_parts, units.size());
  if (smallest_part > 0)
    parts = std::min(parts, total / smallest_part);
  if (parts < 2)
    return {};

  // Largest kernels first, each to the part with the fewest instructions so
  // far: the parts finish close together.
  std::vector<size_t> order(units.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return units[a].instructions > units[b].instructions;
  });
  std::vector<size_t> load(parts, 0);
  std::vector<std::vector<size_t>> members(parts);
  for (size_t u : order) {
    size_t part = std::min_element(load.begin(), load.end()) - load.begin();
    load[part] += units[u].instructions;
    members[part].push_back(u);
  }
  // Kernels in program order within a part (the dump's name, the parts'
  // order in the shared object).
  for (std::vector<size_t> &m : members)
    std::sort(m.begin(), m.end());

  // Which part defines each global value. Internal functions are copied
  // into every part that calls them (so they can still be inlined); so are
  // constants nobody takes the address of for comparison.
  std::vector<Reached> reached(parts);
  for (size_t part = 0; part < parts; ++part)
    for (size_t u : members[part])
      reached[part].insert(units[u].reached.begin(), units[u].reached.end());
  llvm::DenseMap<const llvm::GlobalValue *, size_t> owner;
  for (size_t part = 0; part < parts; ++part)
    for (size_t u : members[part])
      for (const llvm::Function *entry : units[u].entries)
        owner[entry] = part;
  // Parts loaded on their own cannot share a definition: no change is
  // made before that is known.
  auto usersOf = [&](const llvm::GlobalValue &global) {
    std::vector<size_t> users;
    for (size_t part = 0; part < parts; ++part)
      if (reached[part].count(&global))
        users.push_back(part);
    return users;
  };
  if (linkage == PartLinkage::SeparateObjects) {
    for (const llvm::GlobalVariable &variable : module.globals())
      if (!variable.isDeclaration() && usersOf(variable).size() > 1 &&
          (!variable.hasLocalLinkage() || mustBeShared(variable)))
        return {};
    for (const llvm::Function &f : module)
      if (!f.isDeclaration() && !f.hasLocalLinkage() && !owner.count(&f))
        return {};
  }
  unsigned shared_count = 0;
  for (llvm::GlobalVariable &variable : module.globals()) {
    if (variable.isDeclaration())
      continue;
    std::vector<size_t> users = usersOf(variable);
    if (!variable.hasLocalLinkage()) {
      owner[&variable] = users.empty() ? 0 : users.front();
    } else if (users.size() > 1 && mustBeShared(variable)) {
      variable.setName("__weft_shared." + std::to_string(shared_count++) + "." +
                       variable.getName());
      variable.setLinkage(llvm::GlobalValue::ExternalLinkage);
      variable.setVisibility(llvm::GlobalValue::HiddenVisibility);
      owner[&variable] = users.front();
    }
  }
  // Other external definitions (none in a program built by Weft, whose
  // entry points alone are external) stay together in the first part.
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && !f.hasLocalLinkage() && !owner.count(&f))
      owner[&f] = 0;

  std::vector<ModulePart> result;
  for (size_t part = 0; part < parts; ++part) {
    ModulePart out;
    for (size_t u : members[part])
      out.kernels.insert(out.kernels.end(), units[u].names.begin(),
                         units[u].names.end());
    llvm::ValueToValueMapTy map;
    out.module =
        llvm::CloneModule(module, map, [&](const llvm::GlobalValue *global) {
          auto found = owner.find(global);
          if (found != owner.end())
            return found->second == part;
          // Internal: a copy wherever it is used.
          return reached[part].count(global) != 0;
        });
    // What the part neither defines nor uses was cloned as a declaration.
    llvm::SmallVector<llvm::GlobalValue *, 32> unused;
    for (llvm::GlobalValue &global : out.module->global_values())
      if (global.isDeclaration() && global.use_empty() &&
          !(llvm::isa<llvm::Function>(global) &&
            llvm::cast<llvm::Function>(global).isIntrinsic()))
        unused.push_back(&global);
    for (llvm::GlobalValue *global : unused)
      global->eraseFromParent();
    result.push_back(std::move(out));
  }
  return result;
}

} // namespace weft::compiler
