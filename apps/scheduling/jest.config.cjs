module.exports = { displayName: 'scheduling', preset: '../../jest.preset.cjs' };
