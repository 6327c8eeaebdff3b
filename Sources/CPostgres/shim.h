#ifndef NOTIBASE_CPOSTGRES_SHIM_H
#define NOTIBASE_CPOSTGRES_SHIM_H
#include <libpq-fe.h>
#endif
