// The README's first command runs this file: `cargo run --release --bin iris -- examples/hello.js`.
function greet(name) {
  return `Hello, ${name}!`;
}
console.log(greet("Iris"));
console.log([1, 2, 3].map((x) => x * x).join(" "));
