// Shared virtual memory (issue 16) on Weft and PoCL side by side: a linked
// list walk that follows SVM pointers, against the same walk over a buffer
// whose nodes link by index. Nodes are 16 bytes either way and linked in
// one random order, so both walks chase the same cache misses and differ
// only in how the next node is addressed. Each work-item walks one list and
// writes its sum, checked on the host.
#include "kernel_bench.h"

#include <cstdint>
#include <numeric>
#include <random>

namespace {

constexpr size_t kLists = 2048;
constexpr size_t kListLength = 1024;
constexpr size_t kNodes = kLists * kListLength; // 2Mi nodes, 32 MiB

const char *kWalks = R"CLC(
typedef struct Node {
  global struct Node *next;
  int value;
  int pad;
} Node;

kernel void walk_pointers(global Node *global const *heads,
                          global long *sums) {
  size_t i = get_global_id(0);
  long sum = 0;
  for (global const Node *node = heads[i]; node; node = node->next)
    sum += node->value;
  sums[i] = sum;
}

typedef struct IndexNode {
  long next; // -1 ends the list
  int value;
  int pad;
} IndexNode;

kernel void walk_indices(global const IndexNode *nodes,
                         global const long *heads, global long *sums) {
  size_t i = get_global_id(0);
  long sum = 0;
  for (long at = heads[i]; at >= 0; at = nodes[at].next)
    sum += nodes[at].value;
  sums[i] = sum;
}
)CLC";

struct Node {
  Node *next;
  cl_int value;
  cl_int pad;
};
struct IndexNode {
  cl_long next;
  cl_int value;
  cl_int pad;
};
static_assert(sizeof(Node) == 16 && sizeof(IndexNode) == 16, "same footprint");

// The lists, as the slots of their nodes: list i is
// order[i * kListLength + j] for j = 0..kListLength-1, slots a random
// permutation of all nodes.
struct Lists {
  std::vector<uint32_t> order;
  std::vector<cl_int> values; // by slot
  std::vector<cl_long> sums;  // by list
  Lists() : order(kNodes), values(kNodes), sums(kLists, 0) {
    std::iota(order.begin(), order.end(), 0u);
    std::mt19937 random(16);
    std::shuffle(order.begin(), order.end(), random);
    for (size_t slot = 0; slot < kNodes; ++slot)
      values[slot] = cl_int(random() % 1000);
    for (size_t i = 0; i < kLists; ++i)
      for (size_t j = 0; j < kListLength; ++j)
        sums[i] += values[order[i * kListLength + j]];
  }
};

const Lists &lists() {
  static const Lists instance;
  return instance;
}

cl_device_svm_capabilities svmCapabilities(const Driver &d) {
  cl_device_svm_capabilities caps = 0;
  clGetDeviceInfo(d.device, CL_DEVICE_SVM_CAPABILITIES, sizeof(caps), &caps,
                  nullptr);
  return caps;
}

std::function<std::string(int)> checkSums(const Driver &d, cl_mem sums) {
  return [&d, sums](int) {
    return compareExact(readBack<cl_long>(d, sums, kLists), lists().sums,
                        "list sums");
  };
}

// Links the nodes at `nodes` as lists() says and fills `heads`.
void linkPointers(Node *nodes, Node **heads) {
  const Lists &l = lists();
  // First touch in address order, as the buffer walk's copy does: the
  // kernel then gives pages physically contiguous runs alike for both
  // (AMD's TLBs merge such runs); linking in random order first would
  // leave the pointer walk with scattered pages and cost it 10-15%.
  std::memset(static_cast<void *>(nodes), 0, kNodes * sizeof(Node));
  for (size_t i = 0; i < kLists; ++i) {
    Node *next = nullptr;
    for (size_t j = kListLength; j-- > 0;) {
      Node &n = nodes[l.order[i * kListLength + j]];
      n.value = l.values[l.order[i * kListLength + j]];
      n.pad = 0;
      n.next = next;
      next = &n;
    }
    heads[i] = next;
  }
}

// The pointer walk over nodes in clSVMAlloc memory with `flags` (coarse
// grain: built while mapped), or, with `flags` 0, in plain malloc'd memory
// (fine-grained system SVM).
Benchmark pointerWalk(const char *name, cl_svm_mem_flags flags, bool system,
                      cl_device_svm_capabilities needs) {
  Benchmark bm;
  bm.name = name;
  bm.unit = "Mnode/s";
  bm.work = double(kNodes) * 1e3; // Runner divides by 1e9
  bm.available = [needs](const Driver &d) {
    return (svmCapabilities(d) & needs) == needs;
  };
  bm.setup = [=](const Driver &d, Instance &inst, std::string &error) {
    if (!prepare(d, inst, kWalks, "walk_pointers", error, "-cl-std=CL3.0"))
      return false;
    Node *nodes;
    Node **heads;
    if (system) {
      nodes = static_cast<Node *>(std::malloc(kNodes * sizeof(Node)));
      heads = static_cast<Node **>(std::malloc(kLists * sizeof(Node *)));
      inst.cleanup = [nodes, heads] {
        std::free(nodes);
        std::free(heads);
      };
    } else {
      nodes = static_cast<Node *>(
          clSVMAlloc(d.context, flags, kNodes * sizeof(Node), 0));
      heads = static_cast<Node **>(
          clSVMAlloc(d.context, flags, kLists * sizeof(Node *), 0));
      cl_context context = d.context;
      inst.cleanup = [context, nodes, heads] {
        clSVMFree(context, nodes);
        clSVMFree(context, heads);
      };
    }
    if (!nodes || !heads) {
      error = "allocation failed";
      return false;
    }
    bool coarse = !system && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER);
    if (coarse) {
      clEnqueueSVMMap(d.queue, CL_TRUE, CL_MAP_WRITE, nodes,
                      kNodes * sizeof(Node), 0, nullptr, nullptr);
      clEnqueueSVMMap(d.queue, CL_TRUE, CL_MAP_WRITE, heads,
                      kLists * sizeof(Node *), 0, nullptr, nullptr);
    }
    linkPointers(nodes, heads);
    if (coarse) {
      clEnqueueSVMUnmap(d.queue, nodes, 0, nullptr, nullptr);
      clEnqueueSVMUnmap(d.queue, heads, 0, nullptr, nullptr);
      clFinish(d.queue);
    }
    cl_mem sums = bufferOf(d, kLists * sizeof(cl_long));
    inst.buffers = {sums};
    cl_int err = clSetKernelArgSVMPointer(inst.kernel, 0, heads);
    err |= clSetKernelArg(inst.kernel, 1, sizeof(cl_mem), &sums);
    // The nodes are reached only through pointers in memory.
    if (system) {
      cl_bool yes = CL_TRUE;
      err |= clSetKernelExecInfo(inst.kernel,
                                 CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                 sizeof(yes), &yes);
    } else {
      void *reached[] = {nodes};
      err |= clSetKernelExecInfo(inst.kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                                 sizeof(reached), reached);
    }
    if (err) {
      error = "setting arguments failed";
      return false;
    }
    inst.global[0] = kLists;
    inst.local[0] = 64;
    inst.verify = checkSums(d, sums);
    return true;
  };
  return bm;
}

Benchmark indexWalk() {
  Benchmark bm;
  bm.name = "list walk, buffer indices";
  bm.unit = "Mnode/s";
  bm.work = double(kNodes) * 1e3; // Runner divides by 1e9
  bm.setup = [](const Driver &d, Instance &inst, std::string &error) {
    if (!prepare(d, inst, kWalks, "walk_indices", error, "-cl-std=CL3.0"))
      return false;
    const Lists &l = lists();
    std::vector<IndexNode> nodes(kNodes);
    std::vector<cl_long> heads(kLists);
    for (size_t i = 0; i < kLists; ++i) {
      cl_long next = -1;
      for (size_t j = kListLength; j-- > 0;) {
        uint32_t slot = l.order[i * kListLength + j];
        nodes[slot] = {next, l.values[slot], 0};
        next = slot;
      }
      heads[i] = next;
    }
    cl_mem bnodes = bufferWith(d, nodes), bheads = bufferWith(d, heads),
           sums = bufferOf(d, kLists * sizeof(cl_long));
    inst.buffers = {bnodes, bheads, sums};
    clSetKernelArg(inst.kernel, 0, sizeof(cl_mem), &bnodes);
    clSetKernelArg(inst.kernel, 1, sizeof(cl_mem), &bheads);
    clSetKernelArg(inst.kernel, 2, sizeof(cl_mem), &sums);
    inst.global[0] = kLists;
    inst.local[0] = 64;
    inst.verify = checkSums(d, sums);
    return true;
  };
  return bm;
}

} // namespace

int main(int argc, char **argv) {
  Runner runner(driversFromArguments(argc, argv), 4.0);
  if (runner.drivers().empty())
    return 1;
  std::printf("SVM: %zu lists of %zu 16-byte nodes (32 MiB) in one random "
              "order; median wall time of enqueue + clFinish per launch; "
              "nodes visited per second; ratio = first driver's throughput / "
              "second's\n",
              kLists, kListLength);
  lists(); // built before timing
  runner.header();
  runner.run(indexWalk());
  runner.run(pointerWalk("list walk, fine-grained SVM",
                         CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
                         false, CL_DEVICE_SVM_FINE_GRAIN_BUFFER));
  runner.run(pointerWalk("list walk, coarse-grained SVM", CL_MEM_READ_WRITE,
                         false, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER));
  runner.run(pointerWalk("list walk, malloc (system SVM)", 0, true,
                         CL_DEVICE_SVM_FINE_GRAIN_SYSTEM));

  // SVM pointers against indices into a buffer, per driver (above 1: the
  // pointer walk is faster).
  std::printf("\nSVM pointers / buffer indices (throughput ratio):\n");
  for (const Driver &d : runner.drivers()) {
    runner.compare("fine-grained SVM vs buffer, " + d.label,
                   "list walk, fine-grained SVM", d.label,
                   "list walk, buffer indices", d.label);
    runner.compare("coarse-grained SVM vs buffer, " + d.label,
                   "list walk, coarse-grained SVM", d.label,
                   "list walk, buffer indices", d.label);
    runner.compare("malloc (system SVM) vs buffer, " + d.label,
                   "list walk, malloc (system SVM)", d.label,
                   "list walk, buffer indices", d.label);
  }
  return runner.exitStatus("svm_bench");
}
