module.exports = { displayName: 'audit', preset: '../../jest.preset.cjs' };
