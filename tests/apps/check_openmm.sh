#!/bin/sh
# A real application: OpenMM's own installation check (Debian python3-simtk
# with libopenmm-plugins) computes forces on its Reference, CPU and OpenCL
# platforms and compares them. With Weft as the only OpenCL driver, the
# OpenCL platform must compute forces within OpenMM's tolerance. OpenMM needs
# 64-bit atomics (cl_khr_int64_base_atomics) for its CPU-device kernels.
out=$(/usr/bin/python3 -m openmm.testInstallation 2>&1) || { echo "$out"; exit 1; }
echo "$out"
echo "$out" | grep -q 'OpenCL.*' || { echo "no OpenCL platform"; exit 1; }
echo "$out" | grep -A1 'OpenCL' | grep -q 'Successfully computed forces' ||
  { echo "the OpenCL platform failed"; exit 1; }
echo "$out" | grep -q 'Reference vs. OpenCL' ||
  { echo "OpenCL was not compared"; exit 1; }
echo "$out" | grep -q 'All differences are within tolerance' ||
  { echo "forces differ beyond tolerance"; exit 1; }
