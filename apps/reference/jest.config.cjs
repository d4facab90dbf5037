module.exports = { displayName: 'reference', preset: '../../jest.preset.cjs' };
