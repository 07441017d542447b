#!/bin/sh
# workerd with its stdout line-buffered (scripts/v8-flags.ts): what V8 prints there (--trace-gc)
# would otherwise sit in a 4 KB pipe buffer, arrive late or be lost when workerd is stopped.
exec stdbuf -oL "$TUNEWAVE_WORKERD" "$@"
