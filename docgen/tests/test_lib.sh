# Helpers shared by docgen's shell tests (sourced, not run). Each test counts
# what passed and failed and ends with `finish`.
# SKIP_STATUS is the exit status CTest reads as "skipped" (SKIP_RETURN_CODE).

SKIP_STATUS=77
failures=0
passed=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
# status_is DESCRIPTION EXPECTED ACTUAL
status_is() {
    if [ "$2" = "$3" ]; then passed=$((passed + 1)); else fail "$1: exit status $3, expected $2"; fi
}
# expect DESCRIPTION COMMAND...
expect() {
    local description=$1
    shift
    if "$@"; then passed=$((passed + 1)); else fail "$description"; fi
}
# same DESCRIPTION EXPECTED_FILE ACTUAL_FILE: the files are equal (else the diff is shown).
same() {
    if cmp -s "$2" "$3"; then
        passed=$((passed + 1))
    else
        fail "$1"
        diff "$2" "$3" | head -20
    fi
}
# line_of FILE TEXT: the number of the first line that holds TEXT.
line_of() {
    grep -nF -m1 -- "$2" "$1" | cut -d: -f1
}
# line_is FILE LINE TEXT: line LINE of FILE is exactly TEXT.
line_is() {
    [ "$(sed -n "$2p" "$1")" = "$3" ]
}
# fresh_dir DIR: an empty working folder, made the current one.
fresh_dir() {
    rm -rf "$1"
    mkdir -p "$1"
    cd "$1" || exit 1
}
# fenced PAGE: the page's example blocks (its plain ``` fences that hold an
# InputTensor or an Axis line), separated by a blank line.
fenced() {
    awk '
        /^```/ {
            if (inside) {
                if (keep && plain) {
                    if (printed)
                        print ""
                    printf "%s", block
                    printed = 1
                }
                inside = 0
            } else {
                inside = 1
                plain = $0 == "```"
                block = ""
                keep = 0
            }
            next
        }
        inside {
            block = block $0 "\n"
            if ($0 ~ /^(InputTensor|Axis):/)
                keep = 1
        }
    ' "$1"
}

# blocks PAGE: the same without the comments.
blocks() {
    fenced "$1" | sed -E 's|[[:space:]]*//.*$||'
}
# plain_blocks PAGE: the example blocks of a page without fences (from an
# InputTensor or Axis line to the last ']' of the tensor that ends the
# block), separated by a blank line.
plain_blocks() {
    awk '
        !inside && /^(InputTensor|Axis):/ {
            if (printed)
                print ""
            inside = 1
            values = 0
            depth = 0
        }
        inside {
            print
            printed = 1
            code = $0
            sub(/\/\/.*/, "", code)
            if (code ~ /^[[:space:]]*\[/)
                values = 1
            if (values) {
                depth += gsub(/\[/, "[", code)
                depth -= gsub(/\]/, "]", code)
                if (depth == 0)
                    inside = 0
            }
        }
    ' "$1"
}

finish() {
    echo "$passed passed, $failures failed"
    [ "$failures" -eq 0 ]
}
