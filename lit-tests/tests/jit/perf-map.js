// `--perf-map`: each compiled function gets a line `start size name` (hex) in
// /tmp/perf-<pid>.map, where `perf report` finds names for code it has no binary for.
// RUN: %iris --perf-map --jit-threshold 0 %s & pid=$!; wait $pid; cat /tmp/perf-$pid.map; rm -f /tmp/perf-$pid.map
// CHECK: {{^[0-9a-f]+ [0-9a-f]+ js:square#[0-9]+ \(entry\)$}}

function square(x) {
  return x * x;
}
square(3);
