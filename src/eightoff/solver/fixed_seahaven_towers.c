/* The search with the rules EO_RULES_SEAHAVEN_TOWERS compiled in (fixed.h). */
#define EO_FIXED_RULES EO_RULES_SEAHAVEN_TOWERS
#define EO_FIXED_NAME seahaven_towers
#include "fixed.h"
