#include "Check.h"
