// cuda::thread_scope (libcu++) for g++: the scopes of the library's synchronisation
// objects. The simulator models block-scoped pipelines and barriers only. Included by the
// simulator's library headers.
#pragma once

namespace cuda {

enum thread_scope { thread_scope_system, thread_scope_device, thread_scope_block, thread_scope_thread };

}  // namespace cuda
