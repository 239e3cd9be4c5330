#ifndef RIPPLE_CLIBGIT2_SHIM_H
#define RIPPLE_CLIBGIT2_SHIM_H

#include <git2.h>

// git_libgit2_opts is variadic, which Swift cannot call: one static inline wrapper per option used.

/// Turns libgit2's owner validation (safe.directory) on or off.
static inline int ripple_git_set_owner_validation(int enabled) {
  return git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}

/// Sets the search path for a config level (e.g. GIT_CONFIG_LEVEL_GLOBAL), so tests can isolate $HOME.
static inline int ripple_git_set_search_path(int level, const char *path) {
  return git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, path);
}

#endif
