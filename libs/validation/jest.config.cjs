module.exports = { displayName: 'validation', preset: '../../jest.preset.cjs' };
