module.exports = { displayName: 'finance', preset: '../../jest.preset.cjs' };
