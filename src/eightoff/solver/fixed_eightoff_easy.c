/* The search with the rules EO_RULES_EIGHTOFF_EASY compiled in (fixed.h). */
#define EO_FIXED_RULES EO_RULES_EIGHTOFF_EASY
#define EO_FIXED_NAME eightoff_easy
#include "fixed.h"
