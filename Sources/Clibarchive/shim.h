#ifndef RIPPLE_CLIBARCHIVE_SHIM_H
#define RIPPLE_CLIBARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>

#endif
