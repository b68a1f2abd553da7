#include "CZlib.h"

cast_zlib_api cast_zlib_table_storage;
