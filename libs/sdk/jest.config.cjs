module.exports = { displayName: 'sdk', preset: '../../jest.preset.cjs' };
