// How clCreateSubDevices cuts a device's CPUs: equally, by counts, or along
// NUMA nodes and caches (device/cpu_topology.h). A compute unit is one CPU.
#pragma once
#include "device/cpu_topology.h"

#include <CL/cl.h>

#include <vector>

namespace weft {

// The affinity domains `cpus` is offered to split along: the levels the OS
// describes that split `cpus` in two or more, and "next partitionable" when
// there is one.
cl_device_affinity_domain supportedAffinityDomains(const CpuSet &cpus,
                                                   const CpuTopology &topology);

// Reads `properties` (clCreateSubDevices's list) and cuts `cpus` into
// `parts`; `type` gets the list as given, 0-terminated, for
// CL_DEVICE_PARTITION_TYPE. Returns CL_SUCCESS or the spec's error:
// CL_INVALID_VALUE for a list that is malformed or names what the device
// does not support, CL_INVALID_DEVICE_PARTITION_COUNT for counts that do
// not fit, CL_DEVICE_PARTITION_FAILED when the scheme leaves the device
// whole (one NUMA node, one shared cache, one part of every CPU) or gives
// no sub-device.
cl_int partitionCpus(const CpuSet &cpus, const CpuTopology &topology,
                     const cl_device_partition_property *properties,
                     std::vector<CpuSet> &parts,
                     std::vector<cl_device_partition_property> &type);

} // namespace weft
