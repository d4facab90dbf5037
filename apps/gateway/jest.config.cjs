module.exports = { displayName: 'gateway', preset: '../../jest.preset.cjs' };
