/// \file
/// The call site of a runtime call, for the simulator's messages.
///
/// In the simulator each call of the async-copy, barrier and library wrappers also takes
/// its call site, as default arguments that the caller never writes
/// (`__builtin_FILE()`, `__builtin_LINE()`), so that an error names the kernel's line.
/// On the GPU the macros are empty.
///
/// The simulator also names lines from code addresses (the return address of its entry
/// points). A wrapper between the kernel and such an entry point is `WB_SIM_INLINE`, so
/// that it is inlined in every build type, `-O0` (Debug) included: the address is then
/// the kernel's own, and its line the learner's, never the wrapper's.
#pragma once

#include "wb/backend.hpp"

#if WB_BACKEND_SIM
#define WB_SITE_ONLY_PARAMETERS const char *wb_file = __builtin_FILE(), int wb_line = __builtin_LINE()
#define WB_SITE_PARAMETERS , WB_SITE_ONLY_PARAMETERS
#define WB_SITE wb_file, wb_line
#define WB_SIM_INLINE inline __attribute__((always_inline))
#else
#define WB_SITE_ONLY_PARAMETERS
#define WB_SITE_PARAMETERS
#define WB_SITE
#define WB_SIM_INLINE inline
#endif
