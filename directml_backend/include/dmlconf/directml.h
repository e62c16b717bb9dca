/*
 * The directml backend: DirectML's own DML_OPERATOR_CUMULATIVE_SUMMATION
 * and DML_OPERATOR_CUMULATIVE_PRODUCT on a D3D12 device, the implementation
 * the reference pages describe, judged like any other backend.
 */
#ifndef DMLCONF_DIRECTML_H
#define DMLCONF_DIRECTML_H

#include <dmlconf/backend.h>

extern const dmlconf_backend_ops dmlconf_directml_backend_ops;

#endif /* DMLCONF_DIRECTML_H */
