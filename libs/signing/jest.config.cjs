module.exports = { displayName: 'signing', preset: '../../jest.preset.cjs' };
