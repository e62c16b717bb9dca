# The counting the end-to-end test scripts share; sourced at their start.
#   check DESCRIPTION EXPECTED_STATUS ACTUAL_STATUS   an exit status must be the expected one
#   expect DESCRIPTION COMMAND...                     the command must succeed
#   finish                                            prints the counts; fails when a check failed
# Each failure is printed as "FAIL: ..." and counted; the script goes on.
passed=0
failures=0

check() {
    if [ "$2" = "$3" ]; then
        passed=$((passed + 1))
    else
        echo "FAIL: $1: exit status $3, expected $2"
        failures=$((failures + 1))
    fi
}

expect() {
    local description=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
    else
        echo "FAIL: $description"
        failures=$((failures + 1))
    fi
}

finish() {
    echo "$passed checks passed, $failures failed"
    [ "$failures" -eq 0 ]
}
