/* The search with the rules EO_RULES_FREECELL compiled in (fixed.h). */
#define EO_FIXED_RULES EO_RULES_FREECELL
#define EO_FIXED_NAME freecell
#include "fixed.h"
