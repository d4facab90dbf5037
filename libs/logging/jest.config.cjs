module.exports = { displayName: 'logging', preset: '../../jest.preset.cjs' };
