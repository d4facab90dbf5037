module.exports = { displayName: 'topology', preset: '../../jest.preset.cjs' };
