// Mantine's PostCSS preset provides the rem() and breakpoint helpers its CSS is written with.
// (ESM .js rather than .cjs: the package is "type": "module" and the lint config skips *.config.js.)
export default {
  plugins: {
    'postcss-preset-mantine': {},
  },
};
