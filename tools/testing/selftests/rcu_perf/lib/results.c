// SPDX-License-Identifier: GPL-2.0
#include "rcu_perf.h"
