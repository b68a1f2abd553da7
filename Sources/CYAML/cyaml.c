#include "CYAML.h"

cast_yaml_api cast_yaml_table_storage;
