#include "CMicroHTTPD.h"

cast_mhd_api cast_mhd_table_storage;
