#include "CCurl.h"

cast_curl_api cast_curl_table_storage;
