/*
 * The TCases of common's small helpers, one file each, gathered into the
 * common suite by test_common.c.
 */
#ifndef DMLCONF_COMMON_TEST_HELPERS_H
#define DMLCONF_COMMON_TEST_HELPERS_H

#include <check.h>

TCase *reserve_tcase(void);
TCase *buffer_tcase(void);
TCase *why_tcase(void);
TCase *integer_text_tcase(void);

#endif /* DMLCONF_COMMON_TEST_HELPERS_H */
