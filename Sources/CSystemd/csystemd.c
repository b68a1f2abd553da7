#include "CSystemd.h"

cast_sd_notify_function cast_sd_notify_slot_storage;
