#include "CCrypt.h"

cast_crypt_rn_function cast_crypt_slot_storage;
