module.exports = { displayName: 'cursor', preset: '../../jest.preset.cjs' };
