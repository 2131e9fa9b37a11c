// weft-check-printf: printf calls whose format could make the C library
// crash are build errors; literal formats with literal %s arguments pass.
// RUN: not %weft-cl %s --cl-options=-cl-std=CL3.0 -passes=weft-kernel-bodies,weft-check-printf -disable-output 2>&1 | FileCheck %s
// RUN: %weft-cl %s --cl-options="-cl-std=CL3.0 -DGOOD_ONLY" -passes=weft-kernel-bodies,weft-check-printf -disable-output 2>&1 | FileCheck %s --check-prefix=GOOD --allow-empty

// CHECK: error: printf in kernel 'bad' uses %n (format "%n")
// GOOD-NOT: error

kernel void good(global int *x) {
  constant char *s = "kept in a variable";
  printf("%d %5.2f %s %s %c %p %%\n", x[0], 1.5f, "literal", s, 'c', x);
}

#ifndef GOOD_ONLY
kernel void bad(global int *x) {
  int n;
  printf("%n", &n);
}
#endif
