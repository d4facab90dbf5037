module.exports = { displayName: 'lifecycle', preset: '../../jest.preset.cjs' };
