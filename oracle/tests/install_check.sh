#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds a program against
# the installed oracle through pkg-config, as another project would.
# Usage: install_check.sh CMAKE BUILD_DIR WORK_DIR CC [SANITIZERS]
# (a sanitized build's library needs the consumer built with them too)
set -eu
cmake=$1
build=$2
work=$3
cc=$4
sanitize=()
if [ -n "${5:-}" ]; then
    sanitize=("-fsanitize=$5")
fi
rm -rf "$work"
mkdir -p "$work"
"$cmake" --install "$build" --prefix "$work/prefix" >/dev/null
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig:$work/prefix/lib64/pkgconfig:$work/prefix/lib/x86_64-linux-gnu/pkgconfig"
cat > "$work/consumer.c" <<'C'
#include <dmlconf/oracle.h>
#include <stdio.h>

int main(void)
{
    /* The first documented example: a cumulative sum along axis 3. */
    const float input[12] = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};
    const float expected[12] = {2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21};
    float output[12];
    dmlconf_scan_desc desc = {0};
    desc.op = DMLCONF_OPERATOR_CUMULATIVE_SUMMATION;
    desc.input.data_type = DMLCONF_DATA_TYPE_FLOAT32;
    desc.input.dimension_count = 4;
    desc.input.sizes[0] = 1;
    desc.input.sizes[1] = 1;
    desc.input.sizes[2] = 3;
    desc.input.sizes[3] = 4;
    desc.output = desc.input;
    desc.axis = 3;
    dmlconf_error err;
    if (dmlconf_compute(&desc, input, sizeof(input), output, sizeof(output), NULL, &err))
    {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    for (int i = 0; i < 12; ++i)
    {
        if (output[i] != expected[i])
        {
            fprintf(stderr, "element %d: %g, expected %g\n", i, (double)output[i], (double)expected[i]);
            return 1;
        }
    }
    if (dmlconf_min_feature_level(&desc, NULL) != DMLCONF_FEATURE_LEVEL_2_1)
        return 1;
    printf("installed oracle works (%s)\n", dmlconf_feature_level_name(DMLCONF_FEATURE_LEVEL_2_1));
    return 0;
}
C
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Werror "${sanitize[@]}" -o "$work/consumer" "$work/consumer.c" \
    $(pkg-config --cflags --libs dmlconf-oracle)
"$work/consumer"
test -x "$work/prefix/bin/dmlconf"
test -f "$work/prefix/share/man/man1/dmlconf.1"
test -f "$work/prefix/share/dmlconf/cases/doc/summation.yaml"
echo "1 passed, 0 failed"
