/*
 * The pipeline builders on a real device (lavapipe in CI): the kernels a
 * batch says it wants are built before the rest of those in reach.
 */
#include "scan_pipelines.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

static kernel_key serial_key(kernel_element element, kernel_operation operation)
{
    kernel_key key = {.kind = KERNEL_SERIAL, .element = element, .operation = operation};
    return key;
}

static pipeline_state state_of(scan_pipelines *p, const kernel_key *key)
{
    return (pipeline_state)p->state[kernel_key_index(key)];
}

START_TEST(test_wanted_kernels_are_built_first)
{
    d3d12_device device;
    char why[256];
    ck_assert_msg(!d3d12_device_open(&device, NULL, why, sizeof(why)), "no D3D12 device: %s", why);
    scan_pipelines pipelines;
    ck_assert_msg(!scan_pipelines_create(&pipelines, &device, why, sizeof(why)), "%s", why);

    /* In reach, in this order; the batch wants the last two. */
    kernel_key reach[4] = {serial_key(ELEMENT_F32, OPERATION_SUM), serial_key(ELEMENT_F32, OPERATION_PRODUCT),
                           serial_key(ELEMENT_I32, OPERATION_SUM), serial_key(ELEMENT_I64, OPERATION_PRODUCT)};
    kernel_key wanted[2] = {reach[3], reach[2]};
    scan_pipelines_want(&pipelines, wanted, 2);
    ck_assert_uint_eq(scan_pipelines_build_ahead(&pipelines, reach, 4, 1), 1);

    /* One thread builds in order: when two builds have ended, they are the
     * wanted ones (the lock is held while looking, so no third can end). */
    dmlconf_mutex_lock(&pipelines.lock);
    while (pipelines.built_ahead < 2)
        dmlconf_condition_wait(&pipelines.built, &pipelines.lock);
    ck_assert_int_eq(state_of(&pipelines, &wanted[0]), PIPELINE_READY);
    ck_assert_int_eq(state_of(&pipelines, &wanted[1]), PIPELINE_READY);
    if (pipelines.built_ahead == 2)
        ck_assert_int_ne(state_of(&pipelines, &reach[0]), PIPELINE_READY);
    dmlconf_mutex_unlock(&pipelines.lock);

    /* The rest follow, and every one is then there for the asking. */
    for (size_t k = 0; k < 4; ++k)
        ck_assert_msg(scan_pipelines_get(&pipelines, &reach[k], why, sizeof(why)) != NULL, "%s", why);
    ck_assert_uint_le(pipelines.built_ahead, 4);
    scan_pipelines_release(&pipelines);
    d3d12_device_close(&device);
}
END_TEST

START_TEST(test_wanted_kernels_without_threads)
{
    d3d12_device device;
    char why[256];
    ck_assert_msg(!d3d12_device_open(&device, NULL, why, sizeof(why)), "no D3D12 device: %s", why);
    scan_pipelines pipelines;
    ck_assert_msg(!scan_pipelines_create(&pipelines, &device, why, sizeof(why)), "%s", why);
    /* Wanted while no thread will ever build: the batch builds them on use. */
    kernel_key wanted[2] = {serial_key(ELEMENT_F16, OPERATION_SUM), serial_key(ELEMENT_F16, OPERATION_SUM)};
    scan_pipelines_want(&pipelines, wanted, 2);
    ck_assert_uint_eq(pipelines.wanted_count, 1);
    ck_assert_msg(scan_pipelines_get(&pipelines, &wanted[0], why, sizeof(why)) != NULL, "%s", why);
    ck_assert_uint_eq(pipelines.built_ahead, 0);
    scan_pipelines_release(&pipelines);
    d3d12_device_close(&device);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("pipelines");
    TCase *builders = tcase_create("builders");
    tcase_set_timeout(builders, 120);
    tcase_add_test(builders, test_wanted_kernels_are_built_first);
    tcase_add_test(builders, test_wanted_kernels_without_threads);
    suite_add_tcase(suite, builders);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
