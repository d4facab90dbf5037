module.exports = { displayName: 'http-problems', preset: '../../jest.preset.cjs' };
