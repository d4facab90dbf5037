module.exports = { displayName: 'tracing', preset: '../../jest.preset.cjs' };
