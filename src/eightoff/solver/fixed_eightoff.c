/* The search with the rules EO_RULES_EIGHTOFF compiled in (fixed.h). */
#define EO_FIXED_RULES EO_RULES_EIGHTOFF
#define EO_FIXED_NAME eightoff
#include "fixed.h"
